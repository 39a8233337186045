package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * One request against its name's typical request ({@link RequestVsTypical}), as its JSON
 * carries it.
 *
 * @param summary the sentence, or that there were too few typical requests to compare
 * with
 * @param typicalRequests the name's typical requests in the window, added up
 * @param typicalMillis a typical request's duration (their mean); left out where there
 * were too few
 * @param moreMillis how much longer this request took than that (negative: shorter); left
 * out where there were too few
 * @param terms every part's difference, largest first, adding up to {@code moreMillis};
 * left out where there were too few
 */
public record RequestVsTypicalJson(String summary, long typicalRequests,
		@JsonInclude(Include.NON_NULL) Double typicalMillis, @JsonInclude(Include.NON_NULL) Double moreMillis,
		@JsonInclude(Include.NON_NULL) List<BreakdownDifferenceJson.Term> terms) {
}
