import { GEMINI_FIXTURE } from '../../test-support/realCli/agentCliFixtures';
import { describeRealCli } from './realCliScenarios';

describeRealCli(GEMINI_FIXTURE);
