import { safeStorage } from 'electron';
import type { TokenCipher } from '../../host/host';

/**
 * A pasted forge token sealed with the system's keyring (Electron's safeStorage: libsecret or
 * kwallet on Linux). Null where the system offers none: the token is then kept in a 0600 file,
 * and the page says so.
 */
export function safeStorageCipher(): TokenCipher | null {
  if (!safeStorage.isEncryptionAvailable() || safeStorage.getSelectedStorageBackend?.() === 'basic_text') return null;
  return {
    description: "encrypted with your system's keyring (Electron safeStorage)",
    encrypt: (token) => safeStorage.encryptString(token).toString('base64'),
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
