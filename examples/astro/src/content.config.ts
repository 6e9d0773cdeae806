import { defineCollection } from 'astro:content';
import { postboxLoader } from 'postbox/astro';
import { BLOG_URL } from './postbox';

export const collections = {
  posts: defineCollection({ loader: postboxLoader({ url: BLOG_URL }) }),
};
