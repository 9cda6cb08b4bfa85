// The settings panel, generated from the engine's tables (the Catalog the worker sends): the
// I/O scheduler and its tunables by their Linux sysfs names, units and ranges, the request
// queue's settings, the kernel era and HZ, the disk preset, its queue depth and the drive's
// own scheduler, and the workload generators' variants the lesson's processes use (FFSB's
// profile, Postmark's configuration and file system, …), the drive's write policy, range
// writes, each process's I/O priority and the run's length (run-extras.ts). Edits are a draft
// until "Run with these settings"; a value out of range gets a sentence under its field and
// blocks the run. Only what differs from the lesson
// becomes an override (so a shared link says what was changed).
import { useCallback, useId, useState, type FormEvent } from 'react';
import type { DiskFiles } from '../../app/disk-files';
import { checkTunable, unitWord } from '../../app/config-check';
import {
  effective,
  emptyOverrides,
  lessonGenerators,
  lessonHasGenerators,
  PAGE_CACHE_CHOICES,
  type Catalog,
  type GeneratorInfo,
  type RunOverrides,
  type TunableInfo,
} from '../../app/config';
import { BLKDEV_DEFAULT_RQ, mqTagDepth } from '../../engine/iosched/mq-defaults';
import { Choice } from './Choice';
import { DiskFilesField } from './DiskFilesField';
import { RunExtraFields, runExtras } from './RunExtras';

interface Props {
  catalog: Catalog;
  /** the lesson's raw scenario JSON: what "as the lesson says" means */
  lesson: unknown;
  overrides: RunOverrides;
  onApply: (o: RunOverrides) => void;
  /** the panel's accessible name, e.g. "Settings" or "Column 2 settings" */
  title: string;
  compact?: boolean;
  /** the page's DiskSim disks: offers "Open a DiskSim disk" in the disk section */
  diskFiles?: DiskFiles;
}

type Draft = Record<string, string>;

function tunableDefault(t: TunableInfo, hz: number): number {
  return t.defaults[hz] ?? t.defaults[250] ?? Object.values(t.defaults)[0] ?? t.min;
}

export function SettingsPanel(props: Props) {
  const { catalog, lesson, overrides, onApply, title, compact, diskFiles } = props;
  const uid = useId();
  const [draft, setDraft] = useState<Draft>({});
  const base = effective(lesson, emptyOverrides());
  const now = effective(lesson, overrides);
  const set = (key: string, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const selectDisk = useCallback((name: string) => setDraft((d) => ({ ...d, disk: name })), []);

  const sched = draft.sched ?? now.sched;
  const hz = Number(draft.hz ?? now.hz);
  // a kernel left to the default follows the scheduler (mq-deadline: 6.18), as the loader
  const kernelBase = effective(lesson, { ...emptyOverrides(), sched }).kernel;
  const kernel = draft.kernel ?? (overrides.kernel !== undefined ? now.kernel : kernelBase);
  // a user's disk forgotten since it was chosen is no longer offered: the lesson's runs
  const chosen = draft.disk ?? now.disk;
  const disk = catalog.presets.some((p) => p.name === chosen) ? chosen : base.disk;
  const dsched = draft.dsched ?? now.dsched;
  const preset = catalog.presets.find((p) => p.name === disk);
  const maxQd = preset?.maxQueueDepth ?? 64;
  const table = catalog.schedulers.find((s) => s.name === sched)?.tunables ?? [];
  const gens = lessonGenerators(lesson, catalog);
  // the page cache stands between generator threads and the block layer: offered when the
  // lesson has any
  const hasGenerators = lessonHasGenerators(lesson);
  const pc = draft.pc ?? String(now.pc);
  const pcOptions = [...new Set([...PAGE_CACHE_CHOICES, base.pc, now.pc])]
    .sort((a, b) => a - b)
    .map(String);
  const genName = (g: GeneratorInfo) => `${g.kind}.${g.key}`;
  const genValue = (g: (typeof gens)[number]) =>
    draft[`w.${genName(g)}`] ?? overrides.gen[genName(g)] ?? g.lessonValue;

  /** the value a tunable has before this draft: the run's own when its scheduler runs */
  const tunableNow = (t: TunableInfo) =>
    sched === now.sched && now.tunables[t.name] !== undefined
      ? now.tunables[t.name]!
      : sched === base.sched && base.tunables[t.name] !== undefined
        ? base.tunables[t.name]!
        : tunableDefault(t, hz);
  const tunableBase = (t: TunableInfo) =>
    sched === base.sched && base.tunables[t.name] !== undefined
      ? base.tunables[t.name]!
      : tunableDefault(t, hz);
  // kernel 6.18 sizes nr_requests from the host's tag set (the drive's deepest queue), not
  // 2.6's 128: show the default the run will get
  const queueDefault = (t: TunableInfo) =>
    t.name === 'nr_requests' && kernel === '6.18'
      ? mqTagDepth(preset?.maxQueueDepth ?? BLKDEV_DEFAULT_RQ, sched !== 'none', null)
      : tunableDefault(t, hz);
  const queueNow = (t: TunableInfo) => now.queue[t.name] ?? queueDefault(t);
  const queueBase = (t: TunableInfo) => base.queue[t.name] ?? queueDefault(t);

  const tText = (t: TunableInfo) => draft[`t.${t.name}`] ?? String(tunableNow(t));
  const qText = (t: TunableInfo) => draft[`q.${t.name}`] ?? String(queueNow(t));
  const qdText = draft.qd ?? String(now.qd);

  const numberError = (text: string, t: TunableInfo): string | null =>
    text.trim() === '' ? `${t.name} needs a value` : checkTunable(t, Number(text));
  const errors: Record<string, string> = {};
  for (const t of table) {
    const e = numberError(tText(t), t);
    if (e) errors[`t.${t.name}`] = e;
  }
  for (const t of catalog.queue) {
    const e = numberError(qText(t), t);
    if (e) errors[`q.${t.name}`] = e;
  }
  const qd = Number(qdText);
  if (qdText.trim() === '' || !Number.isInteger(qd) || qd < 1 || qd > maxQd) {
    errors.qd = `the queue depth must be a whole number from 1 to ${maxQd} (${preset?.title ?? disk}'s limit)`;
  }
  const extras = runExtras(lesson, overrides, draft, set);
  Object.assign(errors, extras.errors);
  const dirty = Object.keys(draft).length > 0;
  const errorCount = Object.keys(errors).length;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (errorCount > 0) {
      const first = e.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"]');
      first?.focus();
      return;
    }
    const o: RunOverrides = emptyOverrides();
    if (sched !== base.sched) o.sched = sched;
    if (kernel !== kernelBase) o.kernel = kernel;
    if (hz !== base.hz) o.hz = hz;
    if (disk !== base.disk) o.disk = disk;
    if (qd !== base.qd) o.qd = qd;
    if (dsched !== base.dsched) o.dsched = dsched;
    if (Number(pc) !== base.pc) o.pc = Number(pc);
    for (const t of table) {
      const v = Number(tText(t));
      if (v !== tunableBase(t)) o.tunables[t.name] = v;
    }
    for (const t of catalog.queue) {
      const v = Number(qText(t));
      if (v !== queueBase(t)) o.queue[t.name] = v;
    }
    for (const g of gens) if (genValue(g) !== g.lessonValue) o.gen[genName(g)] = genValue(g);
    extras.write(o, preset?.writePolicy);
    setDraft({});
    onApply(o);
  }

  function reset() {
    setDraft({});
    onApply(emptyOverrides());
  }

  const field = (key: string) => ({ id: `${uid}-${key}` });

  return (
    <form
      className={`settings${compact ? ' compact' : ''}`}
      aria-label={title}
      onSubmit={submit}
      noValidate
    >
      <fieldset>
        <legend>I/O scheduler</legend>
        <Choice
          id={field('sched').id}
          label="scheduler"
          hint="/sys/block/…/queue/scheduler"
          value={sched}
          options={catalog.schedulers.map((s) => s.name)}
          lessonValue={base.sched}
          onChange={(v) => {
            // another scheduler's tunables start at their defaults
            setDraft((d) => {
              const next: Draft = {};
              for (const [k, x] of Object.entries(d)) if (!k.startsWith('t.')) next[k] = x;
              return { ...next, sched: v };
            });
          }}
        />
        {table.length === 0 ? (
          <p className="muted small">{sched} has no tunables.</p>
        ) : (
          table.map((t) => (
            <NumberField
              key={`${sched}-${t.name}`}
              id={field(`t-${t.name}`).id}
              t={t}
              text={tText(t)}
              lessonText={String(tunableBase(t))}
              error={errors[`t.${t.name}`] ?? null}
              onChange={(v) => set(`t.${t.name}`, v)}
            />
          ))
        )}
      </fieldset>
      <fieldset>
        <legend>Kernel</legend>
        <Choice
          id={field('kernel').id}
          label="kernel era"
          value={kernel}
          options={catalog.kernels}
          labels={{ '2.6.32': '2.6.32 (CFQ as in 2.6.32.71)' }}
          lessonValue={kernelBase}
          onChange={(v) => set('kernel', v)}
        />
        <Choice
          id={field('hz').id}
          label="HZ"
          hint="timer ticks per second"
          value={String(hz)}
          options={catalog.hz.map(String)}
          lessonValue={String(base.hz)}
          onChange={(v) => set('hz', v)}
        />
        <details className="queue-settings">
          <summary>request queue (/sys/block/…/queue/)</summary>
          {catalog.queue.map((t) => (
            <NumberField
              key={t.name}
              id={field(`q-${t.name}`).id}
              t={t}
              text={qText(t)}
              lessonText={String(queueBase(t))}
              error={errors[`q.${t.name}`] ?? null}
              onChange={(v) => set(`q.${t.name}`, v)}
            />
          ))}
        </details>
      </fieldset>
      <fieldset className="disk-section">
        <legend>Disk</legend>
        <Choice
          id={field('disk').id}
          label="disk"
          hint={preset?.title}
          value={disk}
          options={catalog.presets.map((p) => p.name)}
          labels={Object.fromEntries(
            catalog.presets.flatMap((p) => (p.file ? [[p.name, `${p.name} (DiskSim file)`]] : [])),
          )}
          lessonValue={base.disk}
          onChange={(v) => set('disk', v)}
        />
        {diskFiles && (
          <DiskFilesField session={diskFiles} selected={preset} onSelect={selectDisk} uid={uid} />
        )}
        <div className="field">
          <label htmlFor={`${uid}-qd`}>queue depth</label>
          <input
            id={`${uid}-qd`}
            type="number"
            inputMode="numeric"
            step={1}
            min={1}
            max={maxQd}
            value={qdText}
            aria-invalid={errors.qd ? true : undefined}
            aria-describedby={`${uid}-qd-hint${errors.qd ? ` ${uid}-qd-err` : ''}`}
            onChange={(e) => set('qd', e.target.value)}
          />
          <span className="hint" id={`${uid}-qd-hint`}>
            tags, 1–{maxQd}
            {String(base.qd) !== qdText && ` · lesson: ${base.qd}`}
          </span>
          {errors.qd && (
            <p className="field-error" id={`${uid}-qd-err`}>
              {errors.qd}
            </p>
          )}
        </div>
        <Choice
          id={field('dsched').id}
          label="drive scheduler"
          hint="the drive's own, over its tagged queue"
          value={dsched}
          options={catalog.diskSchedulers}
          lessonValue={base.dsched}
          onChange={(v) => set('dsched', v)}
        />
        <RunExtraFields extras={extras} uid={uid} part="disk" presetPolicy={preset?.writePolicy} />
      </fieldset>
      <RunExtraFields extras={extras} uid={uid} part="processes" />
      {(gens.length > 0 || hasGenerators) && (
        <fieldset>
          <legend>Workload</legend>
          {hasGenerators && (
            <Choice
              id={field('pc').id}
              label="page cache"
              hint="2.6.32's page cache and flusher between the threads and the disk: buffered reads it holds need no I/O, buffered writes reach the disk as writeback sends them (none: as the threads make them)"
              value={pc}
              options={pcOptions}
              labels={Object.fromEntries(
                pcOptions.map((v) => [v, v === '0' ? 'none' : `${v} MiB`]),
              )}
              lessonValue={String(base.pc)}
              onChange={(v) => set('pc', v)}
            />
          )}
          {gens.map((g) => (
            <Choice
              key={genName(g)}
              id={field(`w-${g.kind}-${g.key}`).id}
              label={`${g.kind} ${g.key}`}
              hint={g.doc}
              value={genValue(g)}
              options={g.choices}
              lessonValue={g.lessonValue}
              onChange={(v) => set(`w.${genName(g)}`, v)}
            />
          ))}
        </fieldset>
      )}
      <RunExtraFields extras={extras} uid={uid} part="run" />
      <div className="settings-actions">
        <button type="submit" className="primary">
          Run with these settings
        </button>
        <button type="button" onClick={reset}>
          Reset to the lesson
        </button>
        {dirty && <span className="muted small">not applied yet</span>}
        {errorCount > 0 && (
          <span className="field-error" role="status">
            {errorCount === 1 ? 'One value needs fixing.' : `${errorCount} values need fixing.`}
          </span>
        )}
      </div>
    </form>
  );
}

function NumberField(props: {
  id: string;
  t: TunableInfo;
  text: string;
  lessonText: string;
  error: string | null;
  onChange: (v: string) => void;
}) {
  const { id, t, text, lessonText, error, onChange } = props;
  const changed = text !== lessonText;
  const unit = unitWord(t.unit);
  const describedBy = `${id}-hint${error ? ` ${id}-err` : ''}`;
  return (
    <div className={`field${changed ? ' changed' : ''}`}>
      <label htmlFor={id}>
        <code>{t.name}</code>
      </label>
      {t.unit === 'bool' ? (
        <select
          id={id}
          value={text}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
        >
          {text !== '0' && text !== '1' && <option value={text}>{text}</option>}
          <option value="0">0 (off)</option>
          <option value="1">1 (on)</option>
        </select>
      ) : (
        <input
          id={id}
          type="number"
          inputMode="decimal"
          step="any"
          value={text}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <span className="hint" id={`${id}-hint`}>
        {t.unit !== 'bool' && unit !== '' && `${unit} · `}
        {t.min}–{t.max}
        {changed && ` · lesson: ${lessonText}`} · {t.doc}
      </span>
      {error && (
        <p className="field-error" id={`${id}-err`}>
          {error}
        </p>
      )}
    </div>
  );
}
