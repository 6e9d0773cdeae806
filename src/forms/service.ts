// Builds the forms service from the configuration (placeholder until the forms routes land).
import type { Config } from '../config/schema.js';
import { createHttpApp } from '../http/app.js';
import type { Logger } from '../log.js';
import type { Service } from '../service.js';

export interface FormsServiceDeps {
  logger: Logger;
}

export async function createFormsService(config: Config, deps: FormsServiceDeps): Promise<Service> {
  const app = createHttpApp({ logger: deps.logger, trustProxyHeaders: config.server.trust_proxy_headers });
  app.get('/health', async () => ({ status: 'ok', forms: config.forms.length }));
  return { name: 'forms', app, listen: config.server.listen, shutdown: async () => undefined };
}
