import { OPENCODE_FIXTURE } from '../../test-support/realCli/agentCliFixtures';
import { describeRealCli } from './realCliScenarios';

describeRealCli(OPENCODE_FIXTURE);
