import { freeMailCheckFromList } from '@lp/domain/contacts';
// The freemail package's own free-mail domain list (about 60 kB), bundled into this page's chunk only.
import freeList from 'freemail/data/free.txt?raw';

/**
 * The form's free-mail check, from the same maintained list the server uses. The server also refuses the
 * package's disposable domains (a list too large to ship to the browser); those are reported on save.
 */
export const isFreeMailInBrowser = freeMailCheckFromList(freeList);
