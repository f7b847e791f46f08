import { richdsl } from '../../src/tasks/index.ts';
import { sandboxAgreementSuite } from './dsl-workload.ts';

sandboxAgreementSuite(richdsl, 202);
