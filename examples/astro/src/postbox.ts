// Where Postbox answers: the blog's root (`[blog] public_url`) and the forms service (`[server] public_url`).
export const BLOG_URL = process.env.POSTBOX_BLOG_URL ?? 'http://localhost:8081';
export const FORMS_URL = process.env.POSTBOX_FORMS_URL ?? 'http://localhost:8080';
