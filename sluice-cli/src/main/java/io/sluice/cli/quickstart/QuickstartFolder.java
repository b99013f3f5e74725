package io.sluice.cli.quickstart;

import io.sluice.cli.RunFailure;
import io.sluice.local.LocalDirs;
import io.sluice.local.kafka.KafkaCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The quick start's folder: the broker's data ({@code kafka/}), the pipeline file and the archive ({@code archive/}).
 * A marker file tells an earlier quick start's folder, which is replaced, from a folder of the user's, which is never
 * touched.
 *
 * <p>Stateless.
 */
public final class QuickstartFolder {

    private static final String MARKER = ".sluice-quickstart";
    /** What a quick start writes; only these are removed when a folder is reused. */
    private static final List<String> CONTENTS = List.of("kafka", "archive", "pipeline.yaml", "clickstream.avsc");

    private QuickstartFolder() {
    }

    /** Makes {@code folder} ready, or says why it cannot be used. */
    public static Optional<String> prepare(Path folder) throws IOException {
        if (Files.isDirectory(folder) && !Files.exists(folder.resolve(MARKER))) {
            try (Stream<Path> entries = Files.list(folder)) {
                if (entries.findAny().isPresent()) {
                    return Optional.of(folder + " is not empty and not a quick start's folder; choose another with "
                            + "--dir");
                }
            }
        }
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            return Optional.of(folder + " is a file; choose a folder with --dir");
        }
        Files.createDirectories(folder);
        for (String entry : CONTENTS) {
            Path path = folder.resolve(entry);
            if (Files.isDirectory(path)) {
                LocalDirs.deleteTree(path);
            } else {
                Files.deleteIfExists(path);
            }
        }
        Files.writeString(folder.resolve(MARKER), "written by sluice quickstart; the folder is replaced on the next "
                + "run\n");
        return Optional.empty();
    }

    public static Path kafka(Path folder) {
        return folder.resolve("kafka");
    }

    public static Path archive(Path folder) {
        return folder.resolve("archive");
    }

    /** Starts a one-node broker with its data, logs and scratch files under {@code kafka/}. */
    public static KafkaCluster startBroker(Path folder) throws RunFailure {
        Path kafka = kafka(folder);
        if (System.getProperty(LocalDirs.ROOT_PROPERTY) == null) {
            // the local servers' scratch files (the formatted KRaft template) go there too, not to the temp folder
            System.setProperty(LocalDirs.ROOT_PROPERTY, kafka.toString());
        }
        try {
            return KafkaCluster.builder().name("quickstart-kafka").dir(kafka).start();
        } catch (IllegalStateException | NoClassDefFoundError e) {
            throw new RunFailure("cannot start the local Kafka broker: " + e.getMessage() + " (the quick start runs "
                    + "the broker from the jars Maven downloaded when it built sluice: run it through ./sluice in "
                    + "the repository)", e);
        }
    }
}
