<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="battlemat_hex" tilewidth="32" tileheight="36" tilecount="21" columns="7">
 <grid orientation="orthogonal" width="1" height="1"/>
 <image source="../assets/tiles/battlemat_hex.png" width="224" height="108"/>
 <tile id="0" type="grass"/>
 <tile id="1" type="grass"/>
 <tile id="2" type="dirt"/>
 <tile id="3" type="floor"/>
 <tile id="4" type="ridge"/>
 <tile id="5" type="water"/>
 <tile id="6" type="chasm"/>
 <tile id="7" type="bridge"/>
 <tile id="8" type="wall"/>
 <tile id="9" type="rubble"/>
 <tile id="10" type="underbrush"/>
 <tile id="11" type="tree"/>
 <tile id="12" type="tree"/>
 <tile id="13" type="boulder"/>
 <tile id="14" type="log"/>
</tileset>
