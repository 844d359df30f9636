import { CLAUDE_FIXTURE } from '../../test-support/realCli/agentCliFixtures';
import { describeRealCli } from './realCliScenarios';

describeRealCli(CLAUDE_FIXTURE);
