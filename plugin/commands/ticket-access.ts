/** Lets a player read any player's tickets (plugin.yml); without it, a player reads only their own. */
export const TICKETS_OTHERS_PERMISSION = 'bailiff.tickets.others';
