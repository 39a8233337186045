package dev.spanprofile.benchmarks.overhead.pages;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The same data on every start: 26 last-name initials with {@value #OWNERS_PER_INITIAL}
 * owners each, every owner with two or three pets and every pet with a few visits, so
 * that one search page shows a fixed amount of work.
 */
@Component
class ClinicData implements ApplicationRunner {

	static final int OWNERS_PER_INITIAL = 4;

	private static final String[] TYPES = { "cat", "dog", "lizard", "snake", "bird", "hamster" };

	private static final String[] NAMES = { "Leo", "Basil", "Rosy", "Jewel", "Iggy", "George", "Samantha", "Max",
			"Lucky", "Mulligan", "Freddy", "Sly" };

	private final OwnerRepository owners;

	ClinicData(OwnerRepository owners) {
		this.owners = owners;
	}

	@Override
	public void run(ApplicationArguments args) {
		List<Owner> all = new ArrayList<>();
		int n = 0;
		for (char initial = 'A'; initial <= 'Z'; initial++) {
			for (int i = 0; i < OWNERS_PER_INITIAL; i++, n++) {
				Owner owner = new Owner("First" + n, initial + "astname" + i, n + " Main Street", "City " + (n % 17),
						String.format("60855%05d", n));
				for (int p = 0; p < 2 + (n % 2); p++) {
					Pet pet = new Pet(owner, NAMES[(n + p) % NAMES.length], TYPES[(n + p) % TYPES.length],
							LocalDate.of(2010 + (n % 12), 1 + (p % 12), 1 + (n % 28)));
					for (int v = 0; v < 3; v++) {
						pet.addVisit(new Visit(pet, LocalDate.of(2024, 1 + v, 1 + ((n + v) % 28)), "check-up " + v));
					}
					owner.addPet(pet);
				}
				all.add(owner);
			}
		}
		this.owners.saveAll(all);
	}

}
