import { CLAUDE_FIXTURE } from '../../test-support/realCli/agentCliFixtures';
import { describeRealCliOnMachine } from './onMachineScenario';
import { describeRealCli } from './realCliScenarios';

describeRealCli(CLAUDE_FIXTURE);
describeRealCliOnMachine(CLAUDE_FIXTURE);
