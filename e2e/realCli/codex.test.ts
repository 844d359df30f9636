import { CODEX_FIXTURE } from '../../test-support/realCli/agentCliFixtures';
import { describeRealCli } from './realCliScenarios';

describeRealCli(CODEX_FIXTURE);
