/** The fields of a KeyboardEvent that the shortcut tables read. */
export type KeyPress = Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'shiftKey' | 'metaKey'>;
