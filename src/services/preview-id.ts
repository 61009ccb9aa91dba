import { randomUUID } from 'node:crypto';

/** A preview's id (16 hex digits): carried by its Confirm and Cancel buttons, and by the event it is confirmed into. */
export const newPreviewId = (): string => randomUUID().replaceAll('-', '').slice(0, 16);
