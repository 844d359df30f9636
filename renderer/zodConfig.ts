import { z } from 'zod';

// The page's CSP forbids eval. Zod probes `new Function` when the first object schema is built
// (the shared contract does that on import), so this module must be imported before anything else.
z.config({ jitless: true });
