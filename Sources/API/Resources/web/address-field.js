// An address input with suggestions, for the passenger's app (app.html) and
// any page that asks for a place: as the passenger types, the places the
// text names (GET /v1/places, asked through the `search` function the page
// gives, a moment after the last keystroke so that fast typing asks once)
// are listed under the field, best first. The list follows the ARIA
// combobox pattern, so that it works from the keyboard and a screen reader
// reads it: Down and Up move through the suggestions, Enter takes one,
// Escape closes the list; a click or tap takes one too.
//
// What the field yields (`location()`) is the place chosen, `{lon, lat,
// label}`, while the text still reads as that place's label; otherwise the
// text typed, `{"address": text}`, for the service to look up itself; null
// when empty. A page can also set a place found another way (a tap on the
// map, the passenger's position, a candidate the service offered) with
// `choose(place)`.
//
// Suggestions are the service's text: they are written with textContent,
// never as HTML.

const debounceMs = 200;
const shortestQuery = 2;
let fieldCount = 0;

export class AddressField {
  /**
   * Turns `input` (an <input> with its own label) into an address field.
   * `search(text)` resolves to the places the text names (`[{label, lon, lat, note?}]`);
   * `onChoose(place)` runs when a place is chosen or the choice is dropped (null).
   */
  constructor(input, search, onChoose = () => {}) {
    fieldCount += 1;
    this.input = input;
    this.search = search;
    this.onChoose = onChoose;
    this.chosen = null;
    this.places = [];
    this.active = -1;
    this.pending = null;
    this.asked = 0;
    this.list = document.createElement("ul");
    this.list.id = `${input.id || "address"}-suggestions-${fieldCount}`;
    this.list.className = "address-suggestions";
    this.list.setAttribute("role", "listbox");
    this.list.setAttribute("aria-label", `Suggestions for ${input.labels?.[0]?.textContent.trim() || "the address"}`);
    this.list.hidden = true;
    input.insertAdjacentElement("afterend", this.list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", this.list.id);
    input.autocomplete = "off";
    input.addEventListener("input", () => this.typed());
    input.addEventListener("keydown", (event) => this.key(event));
    input.addEventListener("blur", () => this.close());
    // Taking a suggestion with the mouse must not blur the field first (which closes the list).
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
  }

  /** The place chosen while the text still names it, else the typed text as an address; null when empty. */
  location() {
    const text = this.input.value.trim();
    if (!text) return null;
    if (this.chosen && this.chosen.label === this.input.value) return { lon: this.chosen.lon, lat: this.chosen.lat };
    return { address: text };
  }

  /** The place chosen (`{lon, lat, label}`) while the text still names it, else null. */
  place() {
    return this.chosen && this.chosen.label === this.input.value ? this.chosen : null;
  }

  /** Takes `place` (`{lon, lat, label}`) as the field's value, as if the passenger had chosen it. */
  choose(place) {
    this.chosen = { lon: place.lon, lat: place.lat, label: place.label };
    this.input.value = place.label;
    this.close();
    this.onChoose(this.chosen);
  }

  clear() {
    this.input.value = "";
    this.dropChoice();
    this.close();
  }

  dropChoice() {
    if (!this.chosen) return;
    this.chosen = null;
    this.onChoose(null);
  }

  typed() {
    if (this.chosen && this.chosen.label !== this.input.value) this.dropChoice();
    clearTimeout(this.pending);
    const text = this.input.value.trim();
    if (text.length < shortestQuery) {
      this.close();
      return;
    }
    this.pending = setTimeout(() => this.suggest(text), debounceMs);
  }

  async suggest(text) {
    const asked = ++this.asked;
    let places;
    try {
      places = await this.search(text);
    } catch {
      places = [];
    }
    // An answer to an older text, or to a field left since, is not shown.
    if (asked !== this.asked || this.input.value.trim() !== text || document.activeElement !== this.input) return;
    this.show(places);
  }

  show(places) {
    this.places = places;
    this.active = -1;
    this.list.replaceChildren(...places.map((place, index) => {
      const option = document.createElement("li");
      option.id = `${this.list.id}-${index}`;
      option.className = "address-suggestion";
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.textContent = place.label;
      if (place.note) {
        const note = document.createElement("span");
        note.className = "address-note";
        note.textContent = place.note;
        option.append(" ", note);
      }
      option.addEventListener("click", () => this.choose(place));
      return option;
    }));
    const open = places.length > 0;
    this.list.hidden = !open;
    this.input.setAttribute("aria-expanded", String(open));
    this.input.removeAttribute("aria-activedescendant");
  }

  close() {
    clearTimeout(this.pending);
    this.asked += 1;
    this.places = [];
    this.active = -1;
    this.list.hidden = true;
    this.list.replaceChildren();
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  key(event) {
    const open = !this.list.hidden && this.places.length > 0;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!open) return;
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      this.highlight((this.active + step + this.places.length) % this.places.length);
    } else if (event.key === "Enter" && open && this.active >= 0) {
      event.preventDefault();
      this.choose(this.places[this.active]);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      this.close();
    }
  }

  highlight(index) {
    this.active = index;
    [...this.list.children].forEach((option, at) => {
      option.setAttribute("aria-selected", String(at === index));
      option.classList.toggle("active", at === index);
    });
    const option = this.list.children[index];
    this.input.setAttribute("aria-activedescendant", option.id);
    option.scrollIntoView({ block: "nearest" });
  }
}
