package dev.spanprofile.benchmarks.overhead.pages;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;

@Entity
public class Pet {

	@Id
	@GeneratedValue
	private Integer id;

	private String name;

	private String type;

	private LocalDate birthDate;

	@ManyToOne
	private Owner owner;

	/**
	 * Lazily loaded, one query per pet as the page renders: the N+1 pattern many real
	 * pages have.
	 */
	@OneToMany(mappedBy = "pet", cascade = CascadeType.ALL)
	@OrderBy("date desc")
	private List<Visit> visits = new ArrayList<>();

	protected Pet() {
	}

	Pet(Owner owner, String name, String type, LocalDate birthDate) {
		this.owner = owner;
		this.name = name;
		this.type = type;
		this.birthDate = birthDate;
	}

	void addVisit(Visit visit) {
		this.visits.add(visit);
	}

	public Integer getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

	public String getType() {
		return this.type;
	}

	public LocalDate getBirthDate() {
		return this.birthDate;
	}

	public List<Visit> getVisits() {
		return this.visits;
	}

}
