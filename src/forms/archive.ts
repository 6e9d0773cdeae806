// The archive line of an accepted submission, written before anything is sent (docs/forms-api.md "Delivery").
import type { SubmissionNotice } from './notifications.js';

/** One JSONL record; absent optional fields are left out. */
export interface ArchiveLine {
  received_at: string;
  form: string;
  type: string;
  name?: string;
  email: string;
  service?: string;
  message?: string;
  /** The files of the submission (docs/attachments.md), so that the inbox can delete them with the line. */
  attachments?: Array<{ id: string; filename: string; type: string; size: number; removed?: true }>;
}

/** The record appended (and fsynced) to the form's archive before delivery. */
export function toArchiveLine({ form, submission, receivedAt }: SubmissionNotice): ArchiveLine {
  return {
    received_at: receivedAt,
    form: form.path,
    type: form.type,
    ...(submission.name === undefined ? {} : { name: submission.name }),
    email: submission.email,
    ...(submission.service === undefined ? {} : { service: submission.service }),
    ...(submission.message === undefined ? {} : { message: submission.message }),
    ...(submission.attachments === undefined ? {} : { attachments: submission.attachments.map(({ id, filename, type, size, removed }) => ({ id, filename, type, size, ...(removed ? { removed } : {}) })) }),
  };
}
