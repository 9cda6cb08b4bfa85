// The built-in I/O schedulers. Importing this module registers them.
import { registerElevator } from './elevator';
import { none } from './none';
import { noop } from './noop';
import { deadline } from './deadline';
import { mqDeadline } from './mq-deadline';
import { cfq } from './cfq';
import { anticipatory } from './anticipatory';
import { switcher } from './switcher';
import { adio } from './adio';
import { cfqAnn } from './cfq-ann';
import { kyber } from './kyber';
import { bfq } from './bfq';

registerElevator(none);
registerElevator(noop);
registerElevator(deadline);
registerElevator(mqDeadline);
registerElevator(anticipatory);
registerElevator(cfq);
registerElevator(switcher);
registerElevator(adio);
registerElevator(cfqAnn);
registerElevator(kyber);
registerElevator(bfq);
