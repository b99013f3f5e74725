package io.sluice.mirror.copy;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The mirror sink's checkpoint data: where in the target partition the copies a commit counts lie, for offset
 * translation.
 * <ul>
 *   <li>{@code copies-below=N}: every copy the commit counts lies below N (the last one's offset plus one), and copies
 *       at or past it came from the commit's source offset or later, so a group ahead of the copy is found in one read
 *       from there.</li>
 *   <li>{@code first-copy=M@S}: the mirror's first copy into the partition since its progress began lies at M and
 *       came from source offset S; everything from S on was copied from M on. A search for a source offset of S or
 *       later starts there: a target partition that held millions of records before the first copy (a move from
 *       MirrorMaker 2 to the same topic names) had each search read them all and give up after 30 s, every round. An
 *       offset below S is searched from the partition's start, as before (copies below M, if any, are of an earlier
 *       progress: a reset by hand, or a topic created again).</li>
 * </ul>
 * Written {@code copies-below=N;first-copy=M@S}; a commit of an earlier version says only the first.
 *
 * @param below the target offset below which the commit's copies lie; empty before the first copy
 * @param first the mirror's first copy into the partition; empty when not known (no copy yet, or copies committed by
 *              a version that did not write it)
 */
public record CopyBounds(OptionalLong below, Optional<FirstCopy> first) {

    /** A copy's place: its target offset, and the source offset it came from. */
    public record FirstCopy(long targetOffset, long sourceOffset) {
    }

    private static final String BELOW = "copies-below=";
    private static final String FIRST = "first-copy=";

    /** No copy committed yet: the first copy of a run is then the first of the progress. */
    public static final CopyBounds NONE = new CopyBounds(OptionalLong.empty(), Optional.empty());

    /** Whether no copy was committed: a run's first copy is then the first of the progress. */
    boolean beforeTheFirstCopy() {
        return below.isEmpty();
    }

    /**
     * The bounds after copies up to the one at target offset {@code lastCopy}; {@code firstCopy}, the run's first, is
     * kept only when it is the first of the progress ({@link #beforeTheFirstCopy} at the run's start).
     */
    CopyBounds after(long lastCopy, Optional<FirstCopy> firstCopy) {
        return new CopyBounds(OptionalLong.of(lastCopy + 1), first.isPresent() ? first : firstCopy);
    }

    /** As checkpoint data: empty before the first copy. */
    public String encode() {
        if (below.isEmpty()) {
            return "";
        }
        return BELOW + below.getAsLong() + first.map(f -> ";" + FIRST + f.targetOffset() + "@" + f.sourceOffset())
                .orElse("");
    }

    /** The bounds a checkpoint's data names; {@link #NONE} for data without them (no copy yet, or not the mirror's). */
    public static CopyBounds decode(Optional<String> sinkData) {
        if (sinkData.isEmpty() || !sinkData.get().startsWith(BELOW)) {
            return NONE;
        }
        OptionalLong below = OptionalLong.empty();
        Optional<FirstCopy> first = Optional.empty();
        for (String field : sinkData.get().split(";")) {
            if (field.startsWith(BELOW)) {
                below = number(field.substring(BELOW.length()));
            } else if (field.startsWith(FIRST) && field.indexOf('@') > FIRST.length()) {
                int at = field.indexOf('@');
                OptionalLong target = number(field.substring(FIRST.length(), at));
                OptionalLong source = number(field.substring(at + 1));
                if (target.isPresent() && source.isPresent()) {
                    first = Optional.of(new FirstCopy(target.getAsLong(), source.getAsLong()));
                }
            }
        }
        return below.isEmpty() ? NONE : new CopyBounds(below, first);
    }

    private static OptionalLong number(String text) {
        try {
            return OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
