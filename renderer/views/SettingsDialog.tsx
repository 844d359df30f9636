import { NotificationSettings } from '../attention/NotificationSettings';
import { ModalDialog } from '../components/ModalDialog';

export function SettingsDialog({ onClose }: { onClose(): void }) {
  return (
    <ModalDialog title="Settings" className="settings-dialog" onClose={onClose}>
      <section className="settings-dialog__section" aria-label="Notifications">
        <h3 className="settings-dialog__heading">Notifications</h3>
        <NotificationSettings />
      </section>
    </ModalDialog>
  );
}
