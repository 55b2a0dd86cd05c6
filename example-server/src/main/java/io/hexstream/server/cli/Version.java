package io.hexstream.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version} of the server and its subcommands: {@code hexstream-example-server 0.1.0-SNAPSHOT}, the Maven
 * project version filtered into the resource {@code /io/hexstream/server/version.txt} at build time (the identity
 * document of {@code GET /engine/v1/identity} reads the same resource).
 */
public final class Version implements IVersionProvider {
    /** @throws IOException if the resource is missing from the class path */
    @Override
    public String[] getVersion() throws IOException {
        try (InputStream in = Version.class.getResourceAsStream("/io/hexstream/server/version.txt")) {
            if (in == null) {
                throw new IOException("version.txt is missing from the class path");
            }
            return new String[] {
                "hexstream-example-server " + new String(in.readAllBytes(), StandardCharsets.UTF_8).strip()
            };
        }
    }
}
