// Starts the configured services, each on its own address, and stops them gracefully (contract section 1).
import type { Config } from './config/schema.js';
import type { Logger } from './log.js';
import type { Service } from './service.js';
import { createFormsService } from './forms/service.js';
import { createBlogService } from './blog/service.js';

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServices {
  services: Service[];
  /** The bound addresses, e.g. for tests that listen on port 0. */
  addresses: Record<string, string>;
  stop(): Promise<void>;
}

/** Builds and listens every service the configuration asks for; nothing listens if one fails to start. */
export async function startServices(config: Config, logger: Logger): Promise<RunningServices> {
  const services: Service[] = [];
  try {
    if (config.forms.length > 0) services.push(await createFormsService(config, { logger }));
    if (config.blog) services.push(await createBlogService(config, { logger }));
    const addresses: Record<string, string> = {};
    for (const service of services) {
      addresses[service.name] = await service.app.listen({ host: service.listen.host, port: service.listen.port });
      logger.info({ event: 'listening', service: service.name, address: addresses[service.name] }, 'listening');
    }
    return { services, addresses, stop: () => stopServices(services) };
  } catch (error) {
    await stopServices(services).catch(() => undefined);
    throw error;
  }
}

async function stopServices(services: Service[]): Promise<void> {
  await Promise.all(
    services.map(async (service) => {
      const force = setTimeout(() => service.app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      try {
        await service.app.close();
      } finally {
        clearTimeout(force);
      }
      await service.shutdown();
    }),
  );
}
