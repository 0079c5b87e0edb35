/**
 * The error code of an upload refused because the file cannot be read: a truncated or damaged PDF
 * or PNG, an image whose size its header does not give. Its own code (not BAD_REQUEST) so that a
 * client, the client portal's page first, can say "damaged" rather than "wrong format".
 */
export const FILE_DAMAGED = 'FILE_DAMAGED';
