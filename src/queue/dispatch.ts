// Sends one queued message through its channel now: mail through the mailer, chat and webhook notifications
// through the form's notifier, looked up by the form's path when the message is sent (a queued message holds
// no secret). A form that lost its channel since the message was queued is a permanent failure. Webmentions go
// through the function the blog hands in (docs/comments.md "Sending").
import type { ChatNotifier, Mailer, WebhookNotifier } from '../ports.js';
import type { Dispatch } from './outgoing.js';

export interface DispatchChannels {
  mailer: Mailer;
  chatNotifiers: ReadonlyMap<string, ChatNotifier>;
  webhookNotifiers: ReadonlyMap<string, WebhookNotifier>;
  /** Posts a signed activity to an inbox (docs/activitypub.md "Delivery"), with `[blog.activitypub]`. */
  deliverActivity?: (inbox: string, activity: Record<string, unknown>) => Promise<void>;
  /** Sends one webmention now; `'skipped'` when its target takes none. Absent while comments are off. */
  webmentions?(webmention: { source: string; target: string }): Promise<void | 'skipped'>;
}

/** A channel that is not configured (any more): retrying cannot help. */
export class NoChannelError extends Error {
  readonly code = 'ENOCHANNEL';
  constructor(channel: string) {
    super(`no ${channel} channel is configured for this form`);
    this.name = 'NoChannelError';
  }
}

export function createDispatch(channels: DispatchChannels): Dispatch {
  return async ({ id, message }) => {
    switch (message.channel) {
      case 'mail':
        return channels.mailer.send(message.mail);
      case 'telegram': {
        const notifier = channels.chatNotifiers.get(message.form);
        if (!notifier) throw new NoChannelError('telegram');
        return notifier.send(message.text);
      }
      case 'webhook': {
        const notifier = channels.webhookNotifiers.get(message.form);
        if (!notifier) throw new NoChannelError('webhook');
        // The queued message's id: the same on every retry, so that receivers can drop duplicates.
        return notifier.send({ id, ...message.fields });
      }
      case 'activitypub':
        if (!channels.deliverActivity) throw new NoChannelError('activitypub');
        return channels.deliverActivity(message.inbox, message.activity);
      case 'webmention':
        if (!channels.webmentions) throw new NoChannelError('webmention');
        return channels.webmentions({ source: message.source, target: message.target });
    }
  };
}
