// A static site whose posts come from Postbox (docs/site-generators.md "Eleventy").
import { fileURLToPath } from 'node:url';
import postbox from 'postbox/eleventy';

// Where Postbox answers: the blog's root (`[blog] public_url`) and the forms service (`[server] public_url`).
const BLOG_URL = process.env.POSTBOX_BLOG_URL ?? 'http://localhost:8081';
const FORMS_URL = process.env.POSTBOX_FORMS_URL ?? 'http://localhost:8080';

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(postbox, { url: BLOG_URL });
  eleventyConfig.addGlobalData('site', { blogUrl: BLOG_URL, formsUrl: FORMS_URL });
  // The typed client, for the newsletter form's script.
  eleventyConfig.addPassthroughCopy({ [fileURLToPath(import.meta.resolve('postbox/client'))]: 'js/postbox-client.js' });
}
