package dev.spanprofile.benchmarks.overhead.pages;

import org.springframework.stereotype.Controller;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The owners search page: a query, then a template that walks owners, their pets and each
 * pet's visits.
 */
@Controller
class OwnerController {

	private final OwnerRepository owners;

	OwnerController(OwnerRepository owners) {
		this.owners = owners;
	}

	@GetMapping("/owners")
	@Transactional(readOnly = true)
	String owners(@RequestParam(defaultValue = "") String lastName, Model model) {
		String prefix = lastName.length() > 20 ? lastName.substring(0, 20) : lastName;
		model.addAttribute("lastName", prefix);
		model.addAttribute("owners", this.owners.findByLastNamePrefix(prefix));
		return "pages/owners";
	}

}
