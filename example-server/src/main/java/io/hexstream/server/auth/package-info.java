/**
 * Who may call the Engine API: the shared JWT secret ({@link io.hexstream.server.auth.JwtSecret}) and the check of each
 * request's bearer token ({@link io.hexstream.server.auth.JwtAuthenticator}, HS256, {@code iat} within ±60 s;
 * execution-apis {@code authentication.md}), which answers why a token is refused. Called on the request head, before
 * any body byte is read.
 */
package io.hexstream.server.auth;
