package io.hexstream.server.cli;

import io.hexstream.server.ServerOptions.SecretOptions;
import io.hexstream.server.StartupException;
import io.hexstream.server.auth.JwtAuthenticator;
import java.nio.file.Files;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code token}: prints a fresh HS256 token for the server's secret, for curl and other clients. */
@Command(
        name = "token",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Print a fresh HS256 JWT for the server's secret.")
final class TokenCommand implements Callable<Integer> {
    @Mixin
    SecretOptions secret;

    /**
     * @throws StartupException where it looked for a default secret that is not there, or what
     *     {@link SecretOptions#read} says of the file
     */
    @Override
    public Integer call() throws StartupException {
        if (secret.isDefault() && !Files.exists(secret.file())) {
            throw new StartupException("no JWT secret at " + secret.file().toAbsolutePath() + " (DATA_DIR/"
                    + secret.file().getFileName() + ", --data-dir " + secret.dataDir()
                    + "): the server writes it at its first start; or give --jwt-secret FILE");
        }
        System.out.println(new JwtAuthenticator(secret.read().bytes(), Clock.systemUTC()).token());
        return 0;
    }
}
