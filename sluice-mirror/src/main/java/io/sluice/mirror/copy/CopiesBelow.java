package io.sluice.mirror.copy;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The mirror sink's checkpoint data: the target offset below which lie every copy a commit counts ({@code copies-below=N},
 * the last such copy's offset plus one). Copies at or past it came from the commit's source offset or later, so offset
 * translation finds the first copy from the progress on in one read from there instead of a search (a group ahead of
 * the copy is translated every round while the copy runs).
 *
 * <p>Stateless.
 */
public final class CopiesBelow {

    private static final String PREFIX = "copies-below=";

    private CopiesBelow() {
    }

    public static String encode(long targetOffset) {
        return PREFIX + targetOffset;
    }

    /** The target offset a checkpoint's data names; empty for data without one (older commits, no copy yet). */
    public static OptionalLong decode(Optional<String> sinkData) {
        if (sinkData.isEmpty() || !sinkData.get().startsWith(PREFIX)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(sinkData.get().substring(PREFIX.length())));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
