import type { MachineMethodName } from '../../../shared/contract/machines';
import type { Methods } from '../api';
import type { MachineService } from './machineService';

export function machineMethods(machines: MachineService): Methods<MachineMethodName> {
  return {
    listMachines: () => ({ machines: machines.list() }),
    addMachine: (params) => machines.add(params),
    updateMachineHost: ({ name }) => machines.updateHost(name),
    getMachineHost: async ({ name }) => ({ host: await machines.hostOn(name) }),
    restartMachineHost: async ({ name }) => ({ host: await machines.restartHost(name) }),
    removeMachine: ({ name }) => ({ name, removed: machines.remove(name) }),
  };
}
