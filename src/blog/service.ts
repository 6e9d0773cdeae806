// Builds the blog service from the configuration (placeholder until the blog routes land).
import type { Config } from '../config/schema.js';
import { createHttpApp } from '../http/app.js';
import type { Logger } from '../log.js';
import type { Service } from '../service.js';

export interface BlogServiceDeps {
  logger: Logger;
}

export async function createBlogService(config: Config, deps: BlogServiceDeps): Promise<Service> {
  const blog = config.blog;
  if (!blog) throw new Error('createBlogService needs [blog] in the configuration');
  const app = createHttpApp({ logger: deps.logger });
  app.get('/health', async () => ({ status: 'ok', posts: 0 }));
  return { name: 'blog', app, listen: blog.listen, shutdown: async () => undefined };
}
