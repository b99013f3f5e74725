package io.sluice.storage.backend;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A text's SHA-256 in hex: a file name for a text too long, or of characters too wide, to be one (a staged file's
 * path, a consumer group's name).
 *
 * <p>Stateless.
 */
public final class NameHash {

    private NameHash() {
    }

    public static String of(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
