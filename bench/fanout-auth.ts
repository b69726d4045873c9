/** The JWT secret of the fan-out benches' API processes: the drivers sign their senders' access tokens with it. */
export const JWT_SECRET = 'bench-fanout-jwt-secret-0123456789abcdef';
