// One setting chosen from a list, marked when it differs from the lesson's value.

export function Choice(props: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  options: readonly string[];
  /** shown for an option instead of its value (the value is what a link carries) */
  labels?: Record<string, string>;
  lessonValue: string;
  onChange: (v: string) => void;
}) {
  const { id, label, hint, value, options, labels, lessonValue, onChange } = props;
  const changed = value !== lessonValue;
  return (
    <div className={`field${changed ? ' changed' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint`}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
            {o === lessonValue ? ' (lesson)' : ''}
          </option>
        ))}
      </select>
      <span className="hint" id={`${id}-hint`}>
        {hint}
        {changed && `${hint ? ' · ' : ''}lesson: ${labels?.[lessonValue] ?? lessonValue}`}
      </span>
    </div>
  );
}
