package io.sluice.storage.backend;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The local file system: files are staged under the root (same file system, so the final move is atomic), fsync'd
 * when finished, renamed into place when published, and the directory entry is fsync'd too, so a published file
 * survives a power cut as well as a crash.
 *
 * <p>Staged files are named by {@link StagedName}.
 */
public final class LocalBackend implements StorageBackend {

    private final Path root;

    public LocalBackend(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public PendingFile create(String path, String stagingPrefix) throws IOException {
        Path staging = resolve(stagingPrefix).resolve(StagedName.of(path));
        Files.createDirectories(staging.getParent());
        FileChannel channel = FileChannel.open(staging, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        LazyBuffer stream = new LazyBuffer(Channels.newOutputStream(channel), 256 * 1024);
        PendingRef ref = new PendingRef(path, root.relativize(staging).toString().replace('\\', '/'));
        return new PendingFile() {
            @Override
            public OutputStream stream() {
                return stream;
            }

            @Override
            public PendingRef finish() throws IOException {
                stream.flush();
                channel.force(true);
                channel.close();
                return ref;
            }

            @Override
            public void abort() {
                try {
                    channel.close();
                    Files.deleteIfExists(staging);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove " + staging, e);
                }
            }

            @Override
            public long bufferedBytes() {
                return stream.heapBytes();
            }
        };
    }

    @Override
    public boolean publish(PendingRef ref) throws IOException {
        Path staged = resolve(ref.staging());
        Path target = resolve(ref.path());
        if (!Files.exists(staged)) {
            if (Files.exists(target)) {
                return false; // published before a crash: nothing left to do
            }
            throw new CommittedFileGoneException("neither the staged file " + staged + " nor " + target
                    + " exists: the file a committed manifest names is gone", null);
        }
        Files.createDirectories(target.getParent());
        try {
            Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot publish " + target + " atomically: staging and archive must be on one file "
                    + "system", e);
        }
        fsyncDirectory(target.getParent());
        return true;
    }

    @Override
    public void discard(PendingRef ref) throws IOException {
        Files.deleteIfExists(resolve(ref.staging()));
    }

    @Override
    public List<PendingRef> listStaged(String stagingPrefix) throws IOException {
        Path dir = resolve(stagingPrefix);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<PendingRef> refs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                StagedName.pathOf(f.getFileName().toString()).ifPresent(path -> refs.add(new PendingRef(path,
                        root.relativize(f).toString().replace('\\', '/'))));
            }
        }
        return refs;
    }

    @Override
    public void writeAtomically(String path, byte[] content) throws IOException {
        Path target = resolve(path);
        Files.createDirectories(target.getParent());
        Path temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(content));
            channel.force(true);
        }
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(target.getParent());
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        Path file = resolve(path);
        return Files.exists(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }

    @Override
    public void delete(String path) throws IOException {
        Files.deleteIfExists(resolve(path));
    }

    @Override
    public void download(String path, Path target) throws IOException {
        Files.copy(resolve(path), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public long size(String path) throws IOException {
        Path file = resolve(path);
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString()); // a folder of that name is no file
        }
        return Files.size(file);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        Path dir = resolve(prefix);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> files = new ArrayList<>();
        Path spelt = root.toAbsolutePath().normalize();
        Path inside = root.toRealPath();
        // a file renamed or removed while the folder is walked (an atomic write's temporary file, a file published
        // meanwhile) is not there: Files.walk threw for it, failing a start that listed beside another writer. Links
        // are followed, as the archive's writes are: the files of a folder linked elsewhere (on the same file system:
        // a publish is a rename) are the archive's, and verify called them gone
        Files.walkFileTree(dir, java.util.EnumSet.of(java.nio.file.FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path folder, BasicFileAttributes attributes) throws IOException {
                return !folder.equals(dir) && linkedFromWithin(folder) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (attributes.isRegularFile() && !linkedFromWithin(file)) {
                    files.add(root.relativize(file).toString().replace('\\', '/'));
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException || e instanceof java.nio.file.FileSystemLoopException) {
                    return FileVisitResult.CONTINUE; // a link to a folder being walked: its files are listed there
                }
                throw e;
            }

            /**
             * A link to a place inside the archive, as the link names it: what it leads to is listed where it is (else
             * listed twice, a second time under a name no manifest gives). A link to a folder outside the archive is the
             * archive's own folder kept there, and followed.
             */
            private boolean linkedFromWithin(Path path) throws IOException {
                if (!Files.isSymbolicLink(path)) {
                    return false;
                }
                Path target = path.toAbsolutePath().getParent().resolve(Files.readSymbolicLink(path)).normalize();
                return target.startsWith(spelt) || target.startsWith(inside);
            }
        });
        files.sort(null);
        return files;
    }

    /** A file system's: 255 bytes a name (HDFS: {@code dfs.namenode.fs-limits.max-component-length}'s default). */
    @Override
    public int maxNameBytes() {
        return StagedName.MAX_NAME_BYTES;
    }

    @Override
    public String describe() {
        return root.toUri().toString();
    }

    /** A storage refusal, not a bug: the archive's own files never leave its root, so this one is not written. */
    private Path resolve(String relative) throws IOException {
        Path p = root.resolve(relative).normalize();
        if (!p.startsWith(root)) {
            throw new IOException(relative + " is outside the archive's location " + root);
        }
        return p;
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
