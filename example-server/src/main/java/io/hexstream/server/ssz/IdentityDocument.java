package io.hexstream.server.ssz;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The body of {@code GET /engine/v1/identity} (execution-apis #793, {@code refactor.md}, "{@code GET
 * /engine/v1/identity}"): a {@code ClientVersion} array as {@code engine_getClientVersionV1} returns it
 * ({@code identification.md}, "ClientVersionV1"), one element:
 * {@code [{"code":"HS","name":"hexstream","version":"0.1.0-SNAPSHOT","commit":"0x8841eaf0"}]}. {@code HS} is a code not
 * reserved in {@code identification.md}; the version is the Maven project version ({@code version.txt}, as
 * {@code --version} prints it), the commit the first four bytes of the built commit ({@code commit.txt}, written by the
 * build from {@code git rev-parse HEAD}; {@code 0x00000000} if the build had no git).
 */
final class IdentityDocument {
    /** The client code: two letters no client has reserved. */
    static final String CODE = "HS";

    static final String NAME = "hexstream";
    private static final String RESOURCES = "/io/hexstream/server/";
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{8}");

    private IdentityDocument() {}

    /** The document as UTF-8 bytes. */
    static byte[] json() {
        String version = resource("version.txt");
        String commit = resource("commit.txt");
        commit = commit != null
                        && commit.length() >= 8
                        && COMMIT.matcher(commit.substring(0, 8)).matches()
                ? commit.substring(0, 8)
                : "00000000";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.writeStartArray();
            json.writeStartObject();
            json.writeStringField("code", CODE);
            json.writeStringField("name", NAME);
            json.writeStringField("version", version != null ? version : "unknown");
            json.writeStringField("commit", "0x" + commit);
            json.writeEndObject();
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream throws none
        }
        return out.toByteArray();
    }

    /** A build resource's text, stripped, or {@code null} if it is not on the class path. */
    private static String resource(String name) {
        try (InputStream in = IdentityDocument.class.getResourceAsStream(RESOURCES + name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
