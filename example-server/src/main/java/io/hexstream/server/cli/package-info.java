/**
 * The command line: {@link io.hexstream.server.cli.Main} serves the Engine API (its options are
 * {@link io.hexstream.server.ServerOptions}) until Ctrl-C or SIGTERM ({@code StopSignal}), {@code token} prints a fresh
 * JWT for the server's secret, and {@link io.hexstream.server.cli.ProbeCommand} ({@code probe}) asks any Engine API
 * endpoint for blobs through the client module's getBlobs client ({@link io.hexstream.client}), prints how long each
 * response took to its first byte, its first blob and its last byte, and optionally checks each blob's KZG commitment
 * and proofs ({@link io.hexstream.server.cli.BlobCheck}) and writes what it got to files that only ever hold the bytes
 * of a well-formed response ({@link io.hexstream.server.cli.ResponseFiles}), both off the I/O thread
 * ({@link io.hexstream.server.cli.EntryWork}). The commands' picocli converters and {@code --version} live here too.
 * Nothing else in the server reaches this package.
 */
package io.hexstream.server.cli;
