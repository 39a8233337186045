package dev.spanprofile.benchmarks.overhead.chatty;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * The owners list: the first {@value #OWNERS} owners whose last name starts with the
 * prefix, then each owner's pets in a query of its own, as an ORM's lazy collection loads
 * them.
 */
@RestController
class OwnerController {

	/** Owners listed, so that a request makes {@code 1 + OWNERS} queries. */
	static final int OWNERS = 3;

	private final JdbcClient jdbc;

	OwnerController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/owners")
	String owners(@RequestParam(defaultValue = "") String lastName) {
		String prefix = lastName.length() > 20 ? lastName.substring(0, 20) : lastName;
		List<Owner> owners = this.jdbc
			.sql("select id, first_name, last_name, city from owners where last_name like ? "
					+ "order by last_name, first_name limit " + OWNERS)
			.param(prefix + "%")
			.query((row, i) -> new Owner(row.getInt(1), row.getString(2), row.getString(3), row.getString(4)))
			.list();
		StringBuilder page = new StringBuilder("<html><body><h1>Owners</h1><table>");
		for (Owner owner : owners) {
			List<String> pets = this.jdbc.sql("select name from pets where owner_id = ? order by name")
				.param(owner.id())
				.query(String.class)
				.list();
			page.append("<tr><td>")
				.append(HtmlUtils.htmlEscape(owner.firstName() + " " + owner.lastName()))
				.append("</td><td>")
				.append(HtmlUtils.htmlEscape(owner.city()))
				.append("</td><td>")
				.append(HtmlUtils.htmlEscape(String.join(", ", pets)))
				.append("</td></tr>");
		}
		return page.append("</table></body></html>").toString();
	}

	record Owner(int id, String firstName, String lastName, String city) {
	}

}
