// Entry point of the page: mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { registerOffline } from './app/offline';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
registerOffline();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
