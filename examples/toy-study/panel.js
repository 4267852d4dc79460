// The viewer panel of a sally-anne trial: the two places, where the object is, where the
// protagonist looked. A browser module; the viewer calls its default export with the panel's
// element and the trial's record.

export default function draw(element, record) {
  const { scene, answer } = record;
  const place = (name) => {
    const div = document.createElement('div');
    div.className = 'sally-anne-place';
    div.textContent = `${name}${name === scene.second ? ' (object here)' : ''}${name === answer ? ' <- looked here' : ''}`;
    return div;
  };
  const title = document.createElement('p');
  title.textContent = scene.saw ? 'true belief: the protagonist watched the move' : 'false belief: the protagonist was away';
  element.replaceChildren(title, place(scene.first), place(scene.second));
}
