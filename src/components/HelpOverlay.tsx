// The keyboard shortcuts, listed from the registered actions themselves; and, for teachers,
// what a link can say (url-state.ts).
import { actions } from '../app/actions';
import { HIDEABLE } from '../app/config';

export function HelpOverlay(props: { onClose: () => void; onIntro?: () => void }) {
  const { onClose, onIntro } = props;
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
      <div className="overlay-box">
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {actions.map((a) => (
              <tr key={a.name}>
                <th scope="row">
                  {a.keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </th>
                <td>{a.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>Tab moves between the controls; every button has a name a screen reader reads.</p>
        <h3>Links</h3>
        <p className="small">
          The address bar is always a link to what is on screen (Share adds the current time). Add{' '}
          <code>present=1</code> for projectors (large type), <code>embed=1</code> for a course page
          (disk and controls), <code>quiz=1</code> for quiz mode, and <code>_hide=</code> with any
          of <code>{HIDEABLE.join(',')}</code> to hide controls.
        </p>
        {onIntro && (
          <p>
            <button type="button" onClick={onIntro}>
              Show the introduction
            </button>
          </p>
        )}
        <button type="button" onClick={onClose} autoFocus aria-label="Close help">
          Close
        </button>
      </div>
    </div>
  );
}
