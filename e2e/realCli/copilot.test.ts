import { COPILOT_FIXTURE } from '../../test-support/realCli/agentCliFixtures';
import { describeRealCli } from './realCliScenarios';

describeRealCli(COPILOT_FIXTURE);
