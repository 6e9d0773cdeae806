// A page that only says something: refused requests, unknown pages, failures.
import type { AdminSession } from '../sessions.js';
import { Layout } from './layout.js';

export interface MessagePageProps {
  title: string;
  message: string;
  session?: AdminSession;
  /** Where the person can go from here. */
  link?: { href: string; label: string };
}

export function MessagePage({ title, message, session, link }: MessagePageProps) {
  return (
    <Layout title={title} session={session}>
      <h1>{title}</h1>
      <p>{message}</p>
      {link && (
        <p>
          <a href={link.href}>{link.label}</a>
        </p>
      )}
    </Layout>
  );
}
