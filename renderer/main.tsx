import './zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createBridge } from './bridge';
import { createDroverStore } from './store/droverStore';
import { followOtherMachines } from './store/otherMachines';
import { StoreProvider } from './store/StoreContext';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');

const bridge = createBridge();
const store = createDroverStore(bridge);
followOtherMachines(bridge);

createRoot(container).render(
  <StrictMode>
    <StoreProvider store={store} bridge={bridge}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
