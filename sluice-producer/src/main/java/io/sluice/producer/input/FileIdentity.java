package io.sluice.producer.input;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What tells one file from another with the same path: its size and a hash of its first bytes. An import that resumes
 * in the middle of a file checks both, so a file replaced or rewritten since the last commit is refused instead of
 * being resumed at a byte offset that means nothing in it.
 *
 * @param size     the file's size in bytes (as stored, compressed or not)
 * @param headHash the first 16 hex digits of the SHA-256 of its first {@value #HEAD_BYTES} bytes
 */
public record FileIdentity(long size, String headHash) {

    static final int HEAD_BYTES = 64 * 1024;

    public static FileIdentity of(Path file) throws IOException {
        long size = Files.size(file);
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(in.readNBytes(HEAD_BYTES));
            return new FileIdentity(size, HexFormat.of().formatHex(sha.digest()).substring(0, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
