package dev.spanprofile.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * Where the examined side of a comparison of waits spends the most more per request, for
 * a program as the page's note says it to a person. Times in milliseconds, to the
 * microsecond.
 *
 * @param frame the frame waited in
 * @param caller the nearest application or library caller most of that wait came through,
 * or {@code null} (written as null) when there is none
 * @param spanMillis the one span's wait there, when one span is compared; else
 * {@code null}, left out
 * @param slowMillisPerRequest the slow (or selected) side's wait there per request, when
 * a name's requests are compared; else {@code null}, left out
 * @param typicalMillisPerRequest the typical (or other) side's wait there per request
 * @param moreMillisPerRequest how much longer the examined side waits there per request
 * @param summary the same in one sentence
 */
public record LargestDifferenceJson(String frame, String caller, @JsonInclude(Include.NON_NULL) Double spanMillis,
		@JsonInclude(Include.NON_NULL) Double slowMillisPerRequest, double typicalMillisPerRequest,
		double moreMillisPerRequest, String summary) {
}
