// One elevator in front of another, and the kernel's elevator switch between them
// (2.6.32 elevator_switch → elv_quiesce_start): the machinery `switcher` and `adio` share.
// See docs/iosched/switcher.md § "The elevator switch".
//
// The switch, as the kernel does it:
//  1. QUEUE_FLAG_ELVSWITCH is set and the old elevator is drained (elv_drain_elevator: its
//     dispatch hook with force until it has nothing) — here, one forced dispatch per call;
//  2. requests allocated meanwhile get no elevator-private data (get_request: priv = 0) and
//     are inserted at the back of the dispatch queue, bypassing every elevator (FIFO);
//  3. the switcher sleeps in steps of 10 ms (msleep(10)) until every request that holds the
//     old elevator's private data is freed (q->rq.elvpriv == 0): its requests in the driver
//     must complete first;
//  4. the old elevator exits, the new one is initialized (empty: no history, no statistics)
//     and the flag is cleared.
// What that costs: no scheduling (no sorting, no anticipation, no slices) while the switch
// lasts, at least the old elevator's in-flight requests' service, and up to 10 ms more.
//
// The inner elevators are the registered ones, unchanged; they see an ElevatorContext whose
// timer is multiplexed with the wrapper's own (sampling, drain polling). Every request is
// tagged with the generation of the elevator that holds its private data (or BYPASS), so
// each hook reaches the elevator that knows the request.
import { getElevator } from './elevator';
import { defaultAt, type Bio, type ElevatorContext, type ElevatorType } from './types';
import type { IoRequest } from '../request';

/** elevator_switch's msleep(10) between checks of elvpriv, ns */
export const DRAIN_POLL_NS = 10e6;
/** the tag of a request allocated during a switch (no elevator-private data) */
const BYPASS = -2;

/** One elevator instance: its name, its generation (for request tags) and its state. */
export interface Inner {
  name: string;
  gen: number;
  st: unknown;
}

/** The wrapper's share of the state (the policy's own state extends it). */
export interface SwitchCore {
  /** the elevator serving requests; null while a switch is under way */
  cur: Inner | null;
  /** the elevator being drained during a switch */
  old: Inner | null;
  /** the elevator to start once the old one is drained */
  target: string;
  /** when the switch began, ns (−1: none under way) */
  switchStartNs: number;
  /** requests that arrived during a switch, in arrival order (the dispatch queue's tail) */
  bypass: number[];
  /** request slot → generation of the elevator holding its private data, or BYPASS */
  tag: Record<number, number>;
  /** requests still holding the old elevator's private data (the kernel's elvpriv) */
  oldPriv: number;
  nextGen: number;
  /** the inner elevator's timer and the wrapper's own (sampling or drain poll), ns; −1 off */
  innerTimerAt: number;
  ownTimerAt: number;
  /** what the real timer is armed for, ns; −1 off */
  armedAt: number;
  /** switches completed, and the time spent switching, ns */
  switches: number;
  switchNs: number;
  /** requests moved by forced dispatch and by the bypass during switches */
  drained: number;
  bypassed: number;
}

function elevator(name: string): ElevatorType<unknown> {
  const e = getElevator(name);
  if (!e) throw new Error(`switch: elevator "${name}" is not registered`);
  return e;
}

// ── the context the inner elevators see: the same, with the timer multiplexed ──

interface Proxy {
  ctx: ElevatorContext;
  core: SwitchCore | null;
}
const proxies = new WeakMap<ElevatorContext, Proxy>();

/** The inner elevators' context over `ctx`, bound to this state (one object per context). */
export function innerCtx(core: SwitchCore, ctx: ElevatorContext): ElevatorContext {
  let p = proxies.get(ctx);
  if (!p) {
    const holder: Proxy = { ctx: Object.create(ctx) as ElevatorContext, core: null };
    Object.defineProperties(holder.ctx, {
      setTimer: {
        value(atNs: number) {
          holder.core!.innerTimerAt = atNs;
          rearm(holder.core!, ctx);
        },
      },
      clearTimer: {
        value() {
          holder.core!.innerTimerAt = -1;
          rearm(holder.core!, ctx);
        },
      },
    });
    p = holder;
    proxies.set(ctx, p);
  }
  p.core = core;
  return p.ctx;
}

/** Arm the real timer for the earlier of the inner and the own timer. */
export function rearm(core: SwitchCore, ctx: ElevatorContext): void {
  const a = core.innerTimerAt;
  const b = core.ownTimerAt;
  const at = a < 0 ? b : b < 0 ? a : Math.min(a, b);
  if (at === core.armedAt) return;
  core.armedAt = at;
  if (at < 0) ctx.clearTimer();
  else ctx.setTimer(at);
}

export function setOwnTimer(core: SwitchCore, atNs: number, ctx: ElevatorContext): void {
  core.ownTimerAt = atNs;
  rearm(core, ctx);
}

// ── life cycle ──

function startInner(core: SwitchCore, name: string, ctx: ElevatorContext): Inner {
  const e = elevator(name);
  const tunables: Record<string, number> = {};
  for (const t of e.tunables) tunables[t.name] = defaultAt(t, ctx.hz);
  const inner: Inner = { name, gen: core.nextGen++, st: null };
  inner.st = e.init(tunables, innerCtx(core, ctx));
  return inner;
}

export function createCore(first: string, ctx: ElevatorContext): SwitchCore {
  const core: SwitchCore = {
    cur: null,
    old: null,
    target: first,
    switchStartNs: -1,
    bypass: [],
    tag: {},
    oldPriv: 0,
    nextGen: 0,
    innerTimerAt: -1,
    ownTimerAt: -1,
    armedAt: -1,
    switches: 0,
    switchNs: 0,
    drained: 0,
    bypassed: 0,
  };
  core.cur = startInner(core, first, ctx);
  return core;
}

export const switching = (core: SwitchCore): boolean => core.switchStartNs >= 0;

/** The name of the elevator in charge (during a switch: the one being switched to). */
export const activeName = (core: SwitchCore): string => (core.cur ? core.cur.name : core.target);

/** The inspection view's common part: the scheduler running, and a switch under way. */
export function switchView(core: SwitchCore, ctx: ElevatorContext) {
  return {
    // while the old one drains, q->elevator is still the old one (2.6.32 elevator_switch
    // attaches the new after elv_quiesce_start returns): its internals are the ones shown
    elevator: switching(core) && core.old ? core.old.name : activeName(core),
    switching: switching(core)
      ? {
          from: core.old?.name,
          to: core.target,
          sinceMs: (ctx.now - core.switchStartNs) / 1e6,
          elvpriv: core.oldPriv,
        }
      : null,
  };
}

/**
 * Begin elevator_switch to `name`. Returns true when it completed at once (nothing held
 * the old elevator's private data); else the drain runs and `pollSwitch` finishes it.
 */
export function beginSwitch(core: SwitchCore, name: string, ctx: ElevatorContext): boolean {
  core.old = core.cur;
  core.cur = null;
  core.target = name;
  core.switchStartNs = ctx.now;
  core.innerTimerAt = -1; // the old elevator's idling ends: it is only drained now
  // elvpriv: the requests allocated with the old elevator's data and not yet freed
  let priv = 0;
  const g = core.old!.gen;
  for (const k in core.tag) if (core.tag[k] === g) priv++;
  core.oldPriv = priv;
  if (priv === 0) {
    finishSwitch(core, ctx);
    return true;
  }
  setOwnTimer(core, ctx.now + DRAIN_POLL_NS, ctx);
  ctx.kick();
  return false;
}

/** The 10 ms poll of elevator_switch: true when the switch completed now. */
export function pollSwitch(core: SwitchCore, ctx: ElevatorContext): boolean {
  if (core.oldPriv > 0) {
    setOwnTimer(core, ctx.now + DRAIN_POLL_NS, ctx);
    return false;
  }
  finishSwitch(core, ctx);
  return true;
}

function finishSwitch(core: SwitchCore, ctx: ElevatorContext): void {
  core.innerTimerAt = -1; // a timer the old elevator armed while draining is not the new one's
  core.old = null;
  core.cur = startInner(core, core.target, ctx);
  core.switches++;
  core.switchNs += ctx.now - core.switchStartNs;
  core.switchStartNs = -1;
  core.ownTimerAt = -1;
  rearm(core, ctx);
}

// ── routing the hooks ──

function ownerOf(core: SwitchCore, slot: number): Inner | null {
  const g = core.tag[slot];
  if (g === undefined || g === BYPASS) return null;
  if (core.cur && core.cur.gen === g) return core.cur;
  if (core.old && core.old.gen === g) return core.old;
  return null;
}

/** The ElevatorType hooks of a wrapper whose state is (or extends) a SwitchCore. The policy
 * adds its own observation in `observe` (every completed request) and `ownTimer`. */
export function switchingHooks<S extends SwitchCore>(policy: {
  observe(s: S, rq: IoRequest, ctx: ElevatorContext): void;
  ownTimer(s: S, ctx: ElevatorContext): void;
  noteActivity(s: S, ctx: ElevatorContext): void;
}): Omit<ElevatorType<S>, 'name' | 'title' | 'tunables' | 'dispatchInsert' | 'init' | 'inspect'> {
  const call = <R>(
    s: S,
    inner: Inner,
    ctx: ElevatorContext,
    f: (e: ElevatorType<unknown>, c: ElevatorContext) => R,
  ): R => f(elevator(inner.name), innerCtx(s, ctx));
  return {
    frontMergeCandidate(s, bio: Bio, end, ctx) {
      if (!s.cur) return -1; // during a switch new bios meet no elevator
      const fm = elevator(s.cur.name).frontMergeCandidate;
      if (!fm) return -1;
      const slot = call(s, s.cur, ctx, (e, c) => fm.call(e, s.cur!.st, bio, end, c));
      return slot >= 0 && ownerOf(s, slot) === s.cur ? slot : -1;
    },
    allowMerge(s, rq, bio, ctx) {
      const inner = ownerOf(s, rq.slot);
      // bypassed and drained requests are on the dispatch queue: out of the merge hash
      if (!inner || inner !== s.cur) return false;
      const am = elevator(inner.name).allowMerge;
      return am ? call(s, inner, ctx, (e, c) => am.call(e, inner.st, rq, bio, c)) : true;
    },
    merged(s, rq, front, ctx) {
      const inner = ownerOf(s, rq.slot);
      const m = inner && elevator(inner.name).merged;
      if (inner && m) call(s, inner, ctx, (e, c) => m.call(e, inner.st, rq, front, c));
    },
    requestsMerged(s, survivor, absorbed, ctx) {
      const inner = ownerOf(s, survivor.slot);
      const m = inner && elevator(inner.name).requestsMerged;
      if (inner && m) call(s, inner, ctx, (e, c) => m.call(e, inner.st, survivor, absorbed, c));
    },
    formerRequest(s, rq, ctx) {
      const inner = ownerOf(s, rq.slot);
      const f = inner && elevator(inner.name).formerRequest;
      return inner && f ? call(s, inner, ctx, (e, c) => f.call(e, inner.st, rq, c)) : -1;
    },
    latterRequest(s, rq, ctx) {
      const inner = ownerOf(s, rq.slot);
      const f = inner && elevator(inner.name).latterRequest;
      return inner && f ? call(s, inner, ctx, (e, c) => f.call(e, inner.st, rq, c)) : -1;
    },
    mayQueue(s, bio, ctx) {
      const inner = s.cur;
      const f = inner && elevator(inner.name).mayQueue;
      return inner && f ? call(s, inner, ctx, (e, c) => f.call(e, inner.st, bio, c)) : 'may';
    },
    setRequest(s, rq, bio, ctx) {
      const inner = s.cur;
      if (!inner) {
        s.tag[rq.slot] = BYPASS; // get_request under ELVSWITCH: no private data
        return;
      }
      s.tag[rq.slot] = inner.gen;
      const f = elevator(inner.name).setRequest;
      if (f) call(s, inner, ctx, (e, c) => f.call(e, inner.st, rq, bio, c));
    },
    add(s, rq, ctx) {
      policy.noteActivity(s, ctx);
      if (s.tag[rq.slot] === undefined) s.tag[rq.slot] = s.cur ? s.cur.gen : BYPASS;
      const inner = ownerOf(s, rq.slot);
      if (!inner || inner !== s.cur) {
        // __elv_add_request: a request without elevator data goes to the dispatch queue's back
        s.bypass.push(rq.slot);
        s.tag[rq.slot] = BYPASS;
        ctx.kick();
        return;
      }
      call(s, inner, ctx, (e, c) => e.add(inner.st, rq, c));
    },
    dispatch(s, force, ctx) {
      if (s.old) {
        // elv_drain_elevator: the old elevator gives up everything it holds
        const old = s.old;
        const slot = call(s, old, ctx, (e, c) => e.dispatch(old.st, true, c));
        if (slot >= 0) {
          s.drained++;
          return slot;
        }
      }
      const b = s.bypass.shift();
      if (b !== undefined) {
        s.bypassed++;
        return b;
      }
      const inner = s.cur;
      return inner ? call(s, inner, ctx, (e, c) => e.dispatch(inner.st, force, c)) : -1;
    },
    activate(s, rq, ctx) {
      const inner = ownerOf(s, rq.slot);
      const f = inner && elevator(inner.name).activate;
      if (inner && f) call(s, inner, ctx, (e, c) => f.call(e, inner.st, rq, c));
    },
    deactivate(s, rq, ctx) {
      const inner = ownerOf(s, rq.slot);
      const f = inner && elevator(inner.name).deactivate;
      if (inner && f) call(s, inner, ctx, (e, c) => f.call(e, inner.st, rq, c));
    },
    completed(s, rq, ctx) {
      policy.observe(s, rq, ctx);
      const inner = ownerOf(s, rq.slot);
      if (inner) call(s, inner, ctx, (e, c) => e.completed(inner.st, rq, c));
    },
    putRequest(s, rq, ctx) {
      const inner = ownerOf(s, rq.slot);
      const f = inner && elevator(inner.name).putRequest;
      if (inner && f) call(s, inner, ctx, (e, c) => f.call(e, inner.st, rq, c));
      if (inner && inner === s.old) s.oldPriv--;
      delete s.tag[rq.slot];
    },
    timer(s, ctx) {
      s.armedAt = -1;
      const now = ctx.now;
      if (s.innerTimerAt >= 0 && now >= s.innerTimerAt) {
        s.innerTimerAt = -1;
        const inner = s.cur;
        const t = inner && elevator(inner.name).timer;
        if (inner && t) call(s, inner, ctx, (e, c) => t.call(e, inner.st, c));
      }
      if (s.ownTimerAt >= 0 && now >= s.ownTimerAt) {
        s.ownTimerAt = -1;
        policy.ownTimer(s, ctx);
      }
      rearm(s, ctx);
    },
    queued(s) {
      let n = s.bypass.length;
      if (s.cur) n += elevator(s.cur.name).queued(s.cur.st);
      if (s.old) n += elevator(s.old.name).queued(s.old.st);
      return n;
    },
  };
}

/** The inner elevator's inspection view. */
export function inspectInner(
  core: SwitchCore,
  ctx: ElevatorContext,
): Record<string, unknown> | null {
  const inner = core.cur ?? core.old;
  return inner ? elevator(inner.name).inspect(inner.st, innerCtx(core, ctx)) : null;
}
