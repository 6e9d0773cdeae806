// A static site whose posts come from Postbox (docs/site-generators.md "Astro").
import { defineConfig } from 'astro/config';

export default defineConfig({ output: 'static' });
