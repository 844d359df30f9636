import { z } from 'zod';

/**
 * What the build writes beside the remote host bundle (`dist/remote-host/bundle.json`): which
 * Drover it is, and the runtime its native modules were built for, which a remote must match.
 */
export const RemoteHostBundleSchema = z.object({
  version: z.string(),
  buildId: z.string().regex(/^[0-9a-f]{16}$/),
  /** process.versions.modules of the Node the natives were built against. */
  nodeAbi: z.string(),
  nodeVersion: z.string(),
  platform: z.string(),
  arch: z.string(),
});
export type RemoteHostBundle = z.infer<typeof RemoteHostBundleSchema>;
