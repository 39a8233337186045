package dev.spanprofile.view;

import java.util.List;

/**
 * The name list's JSON.
 *
 * @param windowSeconds how far back the list looks
 * @param names every local-root span name that ended in the window, busiest first
 */
public record NameListJson(long windowSeconds, List<NameSummaryJson> names) implements TableBody {
}
