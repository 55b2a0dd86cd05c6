/**
 * Text a peer supplied, made fit for a log line or a terminal ({@link io.hexstream.server.text.PeerText}). Depends on
 * nothing of the server's, so that every package that logs or prints what a peer sent (the HTTP head checks, the JWT
 * check, {@code probe}) can use it.
 */
package io.hexstream.server.text;
