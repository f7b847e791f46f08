import { dsl6 } from '../../src/tasks/index.ts';
import { sandboxAgreementSuite } from './dsl-workload.ts';

sandboxAgreementSuite(dsl6, 201);
