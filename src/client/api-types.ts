// The bodies the typed client sends and receives, named from the types openapi-typescript made of both listeners'
// OpenAPI documents (openapi/, docs/site-generators.md "The typed client"): a field renamed in an answer changes
// these types with the next build.
import type { components as BlogComponents, operations as BlogOperations } from './openapi/blog-api.js';
import type { components as FormsComponents } from './openapi/forms-api.js';

type BlogSchemas = BlogComponents['schemas'];
type FormsSchemas = FormsComponents['schemas'];

/** A post in a list (`GET /api/blog/posts`). */
export type PostSummary = BlogSchemas['PostSummary'];
/** A post with its Markdown and HTML (`GET /api/blog/posts/{slug}`). */
export type Post = BlogSchemas['PostDetail'];
/** One page of posts. */
export type PostsPage = BlogSchemas['PostsPage'];

type PostsQueryOfDocument = NonNullable<BlogOperations['getPosts']['parameters']['query']>;
/** The parameters of `GET /api/blog/posts`; `page` and `limit` as numbers too. */
export type PostsQuery = Omit<PostsQueryOfDocument, 'page' | 'limit'> & { page?: number | string; limit?: number | string };

/** A post's published comments (`GET /api/blog/posts/{slug}/comments`). */
export type CommentThread = BlogOperations['getComments']['responses'][200]['content']['application/json'];
/** A comment to send. */
export type CommentFields = BlogOperations['postComment']['requestBody']['content']['application/json'];
/** The answer to a comment taken. */
export type CommentAccepted = BlogOperations['postComment']['responses'][202]['content']['application/json'];

/** The fields of a contact, feedback or generic form, as the documents describe them; other fields are ignored. */
export type SubmissionFields = FormsSchemas['Submission_Contact'] | FormsSchemas['Submission_Feedback'] | FormsSchemas['Submission_Generic'];
/** The fields of a newsletter form. */
export type SignupFields = FormsSchemas['Submission_Newsletter'];
/** The answer to an accepted submission or sign-up. */
export type Accepted = FormsSchemas['Ok'];

type ErrorBodies<Schemas> = { [Name in keyof Schemas]: Name extends `Error_${string}` | `ValidationError_${string}` ? Schemas[Name] : never }[keyof Schemas];

/** An error body of the catalogue (docs/openapi.md "Errors"), as either listener answers it. */
export type ErrorBody = ErrorBodies<BlogSchemas> | ErrorBodies<FormsSchemas>;
/** The catalogue's codes. */
export type ErrorCode = ErrorBody['error'];
